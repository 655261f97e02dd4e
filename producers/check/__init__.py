"""`tsograph check` and `tsograph trace`: consumers that join documents, never read source."""
