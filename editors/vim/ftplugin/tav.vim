" tavernlang rules files: '#' comments, two spaces a level (as tav fmt lays them out)
if exists("b:did_ftplugin")
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=#\ %s comments=:# expandtab shiftwidth=2 softtabstop=2
setlocal iskeyword=@,48-57,_
let b:undo_ftplugin = "setlocal commentstring< comments< expandtab< shiftwidth< softtabstop< iskeyword<"
