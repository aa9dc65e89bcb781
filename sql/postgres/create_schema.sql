CREATE SCHEMA {{schema}}
