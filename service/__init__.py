"""Rules-as-a-service for tile-laying and island-trading board games."""
