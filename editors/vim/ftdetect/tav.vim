" tavernlang rules files
autocmd BufRead,BufNewFile *.tav setfiletype tav
