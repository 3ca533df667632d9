"""The rule systems: ``core`` (the engine kit) and one package per system."""
