"""torch's compiler backends: ``debugging`` holds what :func:`ember._dynamo.explain` returns."""
