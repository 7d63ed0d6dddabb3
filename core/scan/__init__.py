"""The scanner behind ``taskpack.core.refusals`` (its public surface); see there."""
