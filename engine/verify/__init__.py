"""The effect check: a simulated plan's net effect held against the words of the intents it was built
from (engine.verify.prove), and the wire shape of its answer."""

from engine.verify.models import Discrepancy, Verification
from engine.verify.prove import Proof, SimulatedPlan, prove
from engine.verify.window import Finding

__all__ = ["Discrepancy", "Finding", "SimulatedPlan", "Proof", "Verification", "prove"]
