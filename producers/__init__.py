"""tsograph producers: one package per command, each a thin view over the project model."""
