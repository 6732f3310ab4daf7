"""The one domain error of the encoders."""

__all__ = ["EncodingError"]


class EncodingError(ValueError):
    """An encoder was handed arguments it cannot turn into a valid call or message (a malformed address, an
    amount out of its ABI type's range, an unsupported fee tier, undecodable return data, ...). The message
    says which argument and why."""
