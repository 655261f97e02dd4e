"""`--format text`: a document as aligned tables for a terminal or CI log, then its limitations."""
