"""The sample benchmark's tasks: what a realistic robot-manipulation suite looks like.

Each task has an instruction, a verifier whose checkpoint message follows the PSR format
(`Label: actual/target` quantities and `Label: True/False` conditions, see psr-metrics.txt), and a
true success probability. The probabilities spread from 0 to 1 on purpose, with tasks at the floor
and the ceiling, so intervals, bars and aggregates are exercised at their edges.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """One verifier checkpoint: a quantity with a positive target, or a boolean (target None)."""

    label: str
    target: int | None = None


@dataclass(frozen=True, slots=True)
class Task:
    name: str
    instruction: str
    checkpoints: tuple[Checkpoint, ...]
    #: Probability that a completed episode succeeds (0 and 1 are exact: floor and ceiling).
    p_success: float
    scene: str


def _q(label: str, target: int) -> Checkpoint:
    return Checkpoint(label, target)


def _b(label: str) -> Checkpoint:
    return Checkpoint(label)


#: 24 tasks, easy to hard in no particular order (as a real suite is listed alphabetically-ish).
TASKS: tuple[Task, ...] = (
    Task("pick-red-cube", "Pick up the red cube and hold it above the table.",
         (_q("Grasped", 1), _b("Lifted")), 1.0, "tabletop-01"),
    Task("open-top-drawer", "Open the top drawer of the cabinet.",
         (_q("Handle reached", 1), _q("Drawer open cm", 20)), 0.82, "kitchen-02"),
    Task("close-microwave", "Close the microwave door.",
         (_q("Door closed", 1), _b("No collision")), 0.94, "kitchen-01"),
    Task("stack-three-blocks", "Stack the three blocks into a single tower, largest at the bottom.",
         (_q("Stacked", 3), _b("Tower stable")), 0.16, "tabletop-02"),
    Task("insert-peg", "Insert the peg into the hole on the fixture.",
         (_q("Aligned", 1), _q("Inserted mm", 30)), 0.36, "workbench-01"),
    Task("pour-beans", "Pour the beans from the cup into the bowl without spilling.",
         (_q("Beans in bowl", 20), _b("Cup upright at end")), 0.22, "kitchen-03"),
    Task("fold-towel", "Fold the towel in half, edge to edge.",
         (_q("Corners matched", 4), _b("Towel on table")), 0.0, "laundry-01"),
    Task("hang-mug", "Hang the mug on the rack by its handle.",
         (_q("Grasped", 1), _q("Hooked", 1), _b("Mug intact")), 0.42, "kitchen-01"),
    Task("sort-fruit", "Put the apples in the left basket and the lemons in the right basket.",
         (_q("Apples sorted", 3), _q("Lemons sorted", 3)), 0.3, "kitchen-04"),
    Task("push-button", "Press the green button on the panel.",
         (_q("Button pressed", 1),), 1.0, "panel-01"),
    Task("turn-faucet-on", "Turn the faucet on.",
         (_q("Handle rotated deg", 90), _b("Water running")), 0.78, "kitchen-02"),
    Task("wipe-table", "Wipe the spill off the table with the sponge.",
         (_q("Area wiped pct", 80), _b("Sponge returned")), 0.55, "kitchen-03"),
    Task("unscrew-cap", "Unscrew the cap of the bottle and put it next to the bottle.",
         (_q("Turns", 3), _b("Cap placed")), 0.1, "workbench-02"),
    Task("place-book-shelf", "Place the book upright on the middle shelf.",
         (_q("Grasped", 1), _b("On shelf"), _b("Upright")), 0.66, "living-01"),
    Task("plug-cable", "Plug the USB cable into the port on the laptop.",
         (_q("Aligned", 1), _q("Inserted", 1)), 0.04, "desk-01"),
    Task("open-jar", "Open the jar and leave the lid on the table.",
         (_q("Turns", 4), _b("Lid on table")), 0.0, "kitchen-04"),
    Task("move-chair", "Push the chair under the desk.",
         (_q("Distance cm", 50), _b("Chair upright")), 0.9, "desk-01"),
    Task("slide-block-left", "Slide the block to the left target zone.",
         (_q("In zone", 1),), 0.96, "tabletop-01"),
    Task("pick-place-can", "Pick up the soda can and place it in the bin.",
         (_q("Grasped", 1), _q("In bin", 1)), 0.86, "kitchen-01"),
    Task("water-plant", "Water the plant using the watering can.",
         (_q("Water ml", 200), _b("Can returned")), 0.5, "living-01"),
    Task("arrange-cups", "Arrange the four cups in a row.",
         (_q("Cups in row", 4), _b("None tipped")), 0.6, "kitchen-02"),
    Task("knot-rope", "Tie a simple overhand knot in the rope.",
         (_q("Crossings", 2), _b("Knot tight")), 0.0, "workbench-02"),
    Task("flip-pancake", "Flip the pancake in the pan with the spatula.",
         (_q("Under pancake", 1), _b("Flipped"), _b("In pan")), 0.72, "kitchen-03"),
    Task("press-elevator", "Press the elevator call button and step back.",
         (_q("Button pressed", 1), _b("Clear of door")), 0.98, "hallway-01"),
)

#: Error categories of the format, with their relative frequency among errored episodes.
ERROR_WEIGHTS = (("infrastructure", 0.4), ("policy", 0.25), ("evaluation", 0.2), ("protocol", 0.15))

#: (error type, message template) per category. Messages carry machine paths on purpose: an
#: export must strip them, and the TUI must show them only in the full record.
ERROR_KINDS: dict[str, tuple[tuple[str, str], ...]] = {
    "infrastructure": (
        ("SimulatorCrash", "simulator worker {w} exited with signal 9; log at "
                           "/home/eval/robobench/logs/worker-{w}.log"),
        ("ConnectionResetError", "connection to benchmark service reset by peer "
                                 "(socket /run/robobench/svc-{w}.sock)"),
        ("TimeoutError", "environment reset timed out after 120 s; see "
                         "/var/log/robobench/reset-{w}.log"),
    ),
    "policy": (
        ("OutOfMemoryError", "CUDA out of memory in /opt/policies/pi-test/model.py:212 "
                             "(tried to allocate 2.00 GiB)"),
        ("ValueError", "policy returned a NaN action at step {w}; traceback in "
                       "/home/eval/runs/pi-test/traceback-{w}.txt"),
    ),
    "protocol": (
        ("ProtocolViolation", "action vector of length 6 but the declared size is 7 "
                              "(driver /srv/driver/run.py:88)"),
        ("ClaimExpired", "episode claim expired before the first control; driver at "
                         "/srv/driver/run.py"),
    ),
    "evaluation": (
        ("VerifierError", "verifier raised KeyError 'joint_{w}' in "
                          "/home/eval/robobench/verifiers/check.py:41"),
        ("ScoringTimeout", "scoring service did not answer within 30 s "
                           "(cache /tmp/robobench-score-{w})"),
    ),
}
