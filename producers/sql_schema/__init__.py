"""`tsograph sql-schema`: tables and columns declared by SQL DDL files (migrations)."""
