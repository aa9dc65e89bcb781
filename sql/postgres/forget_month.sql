DELETE FROM export_months WHERE month = $1
