-- A TEMP table of the scope gone (table: its name); the store's table of that name is read again.
DROP TABLE IF EXISTS temp.main.{{table}}
