"""The orders service: pricing and submission."""
