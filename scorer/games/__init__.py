"""A game at the table: its JSON API, its pages, CSV, the watch page, play again."""
