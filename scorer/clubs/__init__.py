"""Clubs: their JSON API, pages, charts, the club night sheet and the export format."""
