"""The scanner behind ``taskpack.core.trust.refusals`` (its public surface); see there."""
