SELECT month, fingerprint, rows FROM export_months
