"""`routes --role server` for Python services: one module per framework (fastapi.py, …)."""
