"""The modules of ``ember.utils.benchmark`` (``common``, ``timer``, ``compare``), as torch's."""
