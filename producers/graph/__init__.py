"""The call graph: building it from the project model, and traversing it (reach, impact)."""
