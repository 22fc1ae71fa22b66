"""One APIRouter per resource; api/main.py includes them under /api/v1."""
