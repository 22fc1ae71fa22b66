"""Reading a photo of Sushi Go! cards: the card finder, the classifier, the stack check."""

from pathlib import Path

# The shipped networks, wherever the package lies: here, not in vision.detector, so that
# the command line names it without loading OpenCV.
WEIGHTS_DIR = Path(__file__).parent / "weights"
