DELETE FROM {{table}}
