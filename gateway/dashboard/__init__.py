"""The dashboard page: static files served at /dashboard; all data calls go to /v1beta."""

from gateway.dashboard.pages import STATIC_DIR, install_dashboard

__all__ = ["STATIC_DIR", "install_dashboard"]
