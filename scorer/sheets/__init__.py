"""Printed sheets: PDF rendering (WeasyPrint), the game and blank sheets, their cache."""
