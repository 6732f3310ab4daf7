"""Packaged registry data files (JSON); a package so that wheels carry them."""
