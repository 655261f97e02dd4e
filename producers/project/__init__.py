"""The project model: the source walk, configuration files and module resolution."""
