"""The data model: `Run` (model/run.py), a harness result (model/harness_plain.py), addresses."""

#: Where a closed run's verifier message lives by default (`metrics.message`). Here, not only in
#: `evalview.model.run` (which re-exports it), so the readers' options and registry name it
#: without importing the `Run` model: a harness result's `check` never builds one.
DEFAULT_MESSAGE_KEY = "message"
