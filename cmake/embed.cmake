# Turns a text file into a C source defining `const char SYMBOL[]` with its bytes, so the
# tools carry their dialect definitions and run from any directory.
# Usage: cmake -DINPUT=f -DOUTPUT=f.c -DSYMBOL=name -P embed.cmake
file(READ "${INPUT}" hex HEX)
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "(char)0x\\1," bytes "${hex}")
file(WRITE "${OUTPUT}"
  "/* Generated from ${INPUT} by cmake/embed.cmake: do not edit. */\n"
  "const char ${SYMBOL}[] = {${bytes} 0x00};\n")
