"""`tsograph routes`: route declarations of a project as bridge-facts documents."""
