"""The full-screen terminal app (Textual): board, lobby and their screens."""
