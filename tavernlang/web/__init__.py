"""`tav serve`: any rules file played in a browser (the [web] extra). tables.py keeps the games
and makes what each seat may see; app.py serves it (Starlette); static/ holds the pages."""
