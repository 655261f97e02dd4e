"""The exchange layer: documents, their schemas, ids, templates and the writer.

It knows documents, not languages. Producers call it; it never calls them.
"""
