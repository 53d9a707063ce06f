"""The tutorial's lessons, one ``tne-lesson/1`` file each (``tutorial.py``, docs/web.md)."""
