-- How many rows a TEMP table of the scope holds (table: its name).
SELECT count(*) FROM temp.main.{{table}}
