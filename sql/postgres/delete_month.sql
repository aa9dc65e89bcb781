DELETE FROM {{table}} WHERE month = $1
