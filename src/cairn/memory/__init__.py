"""Agent memory: observations, claims, outcome signals and the evidence governor."""
