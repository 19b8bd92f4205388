# The browser's test's page into C: cmake -DIN=page.html -DOUT=web_page.c -P embed.cmake
# (CMakeLists.txt runs it whenever page.html changes). Bytes, not a string literal: no
# escaping, no limit on a literal's length.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" digits)
math(EXPR len "${digits} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," bytes "${hex}")
string(REGEX REPLACE "((0x..,){24})" "\\1\n" bytes "${bytes}")
file(WRITE "${OUT}" "/* Generated from src/web/page.html by src/web/embed.cmake: do not edit. */\n"
     "#include <stddef.h>\n\nconst char ttcp_web_page[] = {\n${bytes}0};\n"
     "const size_t ttcp_web_page_len = ${len};\n")
