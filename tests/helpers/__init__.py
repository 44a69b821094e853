"""Test helpers used across test directories (importable as `helpers.*`: tests/ is on sys.path
through tests/conftest.py, pytest's rootdir-conftest rule)."""
