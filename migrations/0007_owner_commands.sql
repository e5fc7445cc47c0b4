-- Commands of the table (service/rules/seating.py) are recorded beside the seats'
-- commands so that exports replay them: a seat's resignation, and the game owner's
-- abandon and hand-overs. The owner's abandon concerns no seat: its row has seat NULL.
ALTER TABLE commands ALTER COLUMN seat DROP NOT NULL;
