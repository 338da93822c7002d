# cmake -P script: writes OUTPUT, the WGSL kernel described by FRAGMENT (src/kernels/<name>.wgsl.in)
# expanded through its template from TEMPLATE_DIR (src/kernels/templates/).
#
# A fragment is: its prelude (every line before the first directive, copied as it is: the header
# comment, `enable f16;`), then directives, each on a line of its own:
#   //! template: NAME           the skeleton, TEMPLATE_DIR/NAME.wgsl.in
#   //! NAME: VALUE              a one-line value, used inside a template line as @NAME@
#   //! NAME                     a block: the lines that follow, up to the next directive
#   //! NAME (each chain)        a block written once for each chain k = 0..7
#   //! NAME (each chain, N rounds)   ... for N rounds of the 8 chains
#   //! include: NAME            the lines of TEMPLATE_DIR/NAME.wgsl.in, as if written here
# Values with defaults: workgroup_size (64), trip (8: iterations a loop trip of alu_loop) and
# trip_words (its comment's word for it, "Eight").
# A block named `params` holds the fields of a kernel's 16-byte uniform, one a line, each 4
# bytes: u32 words named _pad0, _pad1, ... follow them up to 4 fields.
# A block named twice is one block: its parts join in order. In a block, {E} is an integer
# expression (+ - * / %) of k (the chain) and s (the step: 8 * round + k), e.g. x{k}, {3*k}u,
# {s}u, w{k/2}{k%2}; with a hexadecimal number in it, its value is hexadecimal too:
# {0x5bd1e995+0x01010101*k}. A part without "(each chain)" turns each line holding an {E} into 8
# lines, k = s = 0..7.
# A template is WGSL text in which a line `<spaces>@NAME@` stands for block NAME indented by those
# spaces (nothing when the fragment has no such block) and @NAME@ inside a line for value NAME.
# Lines starting with //# are comments of the generator, in any of these files, and are dropped.
cmake_minimum_required(VERSION 3.25)

foreach(_argument FRAGMENT TEMPLATE_DIR OUTPUT)
  if(NOT DEFINED ${_argument})
    message(FATAL_ERROR "expand_kernel_script.cmake: ${_argument} is not set")
  endif()
endforeach()

# An {E} of the blocks: it names k or s (so no WGSL braces match).
set(kPlaceholder "{[-+*/%0-9a-fx ]*[ks][-+*/%0-9a-fksx ]*}")

# Moves the first line of the text in variable `text_var` (newline-terminated lines), without its
# newline, into variable `line_var`.
macro(PopLine text_var line_var)
  string(FIND "${${text_var}}" "\n" _end)
  string(SUBSTRING "${${text_var}}" 0 ${_end} ${line_var})
  math(EXPR _end "${_end} + 1")
  string(SUBSTRING "${${text_var}}" ${_end} -1 ${text_var})
endmacro()

# Fails naming the fragment being expanded.
function(KernelError message)
  message(FATAL_ERROR "${FRAGMENT}: ${message}")
endfunction()

# Sets `out` to the text of `path` (every line ending with a newline) without //# lines and with
# every `//! include: NAME` replaced by the text of TEMPLATE_DIR/NAME.wgsl.in.
function(ReadKernelText path depth out)
  if(depth GREATER 8)
    KernelError("includes nest deeper than 8 (a cycle?) at ${path}")
  endif()
  if(NOT EXISTS "${path}")
    KernelError("no file ${path}")
  endif()
  file(READ "${path}" rest)
  if(NOT "${rest}" MATCHES "\n$")
    KernelError("${path} does not end with a newline")
  endif()
  set(text "")
  while(NOT "${rest}" STREQUAL "")
    PopLine(rest line)
    if("${line}" MATCHES "^//#")
      continue()
    elseif("${line}" MATCHES "^//! include: ([a-z0-9_]+)$")
      math(EXPR inner_depth "${depth} + 1")
      ReadKernelText("${TEMPLATE_DIR}/${CMAKE_MATCH_1}.wgsl.in" ${inner_depth} included)
      string(APPEND text "${included}")
    else()
      string(APPEND text "${line}\n")
    endif()
  endwhile()
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# Sets `out` to `line` with every {E} replaced by the value of E for chain k and step s.
function(ExpandLine line k s out)
  string(REGEX MATCHALL "${kPlaceholder}" expressions "${line}")
  foreach(expression IN LISTS expressions)
    string(REGEX REPLACE "^{(.*)}$" "\\1" formula "${expression}")
    string(REPLACE "k" "${k}" formula "${formula}")
    string(REPLACE "s" "${s}" formula "${formula}")
    if("${formula}" MATCHES "0x")
      math(EXPR value "${formula}" OUTPUT_FORMAT HEXADECIMAL)
    else()
      math(EXPR value "${formula}")
    endif()
    string(REPLACE "${expression}" "${value}" line "${line}")
  endforeach()
  set(${out} "${line}" PARENT_SCOPE)
endfunction()

# Appends the expansion of one block part (`lines`, newline-terminated) to block `name`; `rounds`
# is 0 for a part written once, else the number of rounds of the 8 chains. The prelude is copied.
function(AddBlockPart name lines rounds)
  set(text "")
  if("${name}" STREQUAL "prelude")
    set(text "${lines}")
  elseif(rounds EQUAL 0)
    set(rest "${lines}")
    while(NOT "${rest}" STREQUAL "")
      PopLine(rest line)
      if("${line}" MATCHES "${kPlaceholder}")
        foreach(k RANGE 7)
          ExpandLine("${line}" ${k} ${k} expanded)
          string(APPEND text "${expanded}\n")
        endforeach()
      else()
        string(APPEND text "${line}\n")
      endif()
    endwhile()
  else()
    math(EXPR last_round "${rounds} - 1")
    foreach(round RANGE ${last_round})
      foreach(k RANGE 7)
        math(EXPR s "8 * ${round} + ${k}")
        set(rest "${lines}")
        while(NOT "${rest}" STREQUAL "")
          PopLine(rest line)
          ExpandLine("${line}" ${k} ${s} expanded)
          string(APPEND text "${expanded}\n")
        endwhile()
      endforeach()
    endforeach()
  endif()
  set(block_${name} "${block_${name}}${text}" PARENT_SCOPE)
endfunction()

# --- The fragment: the prelude, then values and blocks. ---
ReadKernelText("${FRAGMENT}" 0 rest)
set(names "prelude")
set(block_prelude "")
set(part_name "prelude")
set(part_lines "")
set(part_rounds 0)
set(template "")
# A sentinel directive flushes the last part.
string(APPEND rest "//! end of fragment\n")
while(NOT "${rest}" STREQUAL "")
  PopLine(rest line)
  if(NOT "${line}" MATCHES "^//!")
    string(APPEND part_lines "${line}\n")
    continue()
  endif()
  AddBlockPart(${part_name} "${part_lines}" ${part_rounds})
  set(part_lines "")
  set(part_name "")
  set(part_rounds 0)
  if("${line}" STREQUAL "//! end of fragment")
    break()
  elseif("${line}" MATCHES "^//! template: ([a-z0-9_]+)$")
    set(template "${CMAKE_MATCH_1}")
  elseif("${line}" MATCHES "^//! ([a-z_]+): (.+)$")
    if(DEFINED value_${CMAKE_MATCH_1} OR DEFINED block_${CMAKE_MATCH_1})
      KernelError("'${CMAKE_MATCH_1}' is given twice")
    endif()
    set(value_${CMAKE_MATCH_1} "${CMAKE_MATCH_2}")
    list(APPEND names ${CMAKE_MATCH_1})
  elseif("${line}" MATCHES "^//! ([a-z_]+)( \\(each chain(, ([0-9]+) rounds)?\\))?$")
    set(part_name ${CMAKE_MATCH_1})
    if(NOT "${CMAKE_MATCH_2}" STREQUAL "")
      set(part_rounds 1)
    endif()
    if(NOT "${CMAKE_MATCH_4}" STREQUAL "")
      set(part_rounds ${CMAKE_MATCH_4})
    endif()
    if(DEFINED value_${part_name})
      KernelError("'${part_name}' is both a value and a block")
    endif()
    if(NOT DEFINED block_${part_name})
      set(block_${part_name} "")
      list(APPEND names ${part_name})
    endif()
  else()
    KernelError("not a directive: ${line}")
  endif()
  if("${part_name}" STREQUAL "")
    # Lines after a value or the template line, before the next block, belong to no block.
    set(part_name "_after_value")
  endif()
endwhile()
if(NOT "${block__after_value}" MATCHES "^\n*$")
  KernelError("lines outside a block: ${block__after_value}")
endif()
if("${template}" STREQUAL "")
  KernelError("no '//! template: NAME' line")
endif()

# The uniform's fields, padded to 16 bytes.
if(DEFINED block_params)
  string(REGEX MATCHALL "\n" _field_ends "${block_params}")
  list(LENGTH _field_ends _fields)
  set(_pad 0)
  while(_fields LESS 4)
    string(APPEND block_params "_pad${_pad}: u32,\n")
    math(EXPR _pad "${_pad} + 1")
    math(EXPR _fields "${_fields} + 1")
  endwhile()
endif()

# Values a fragment may leave out, and their defaults.
if(NOT DEFINED value_workgroup_size)
  set(value_workgroup_size 64)
endif()
if(NOT DEFINED value_trip)
  set(value_trip 8)
endif()
if(NOT DEFINED value_trip_words)
  set(value_trip_words Eight)
endif()

# --- The template: blocks and values put in place. ---
ReadKernelText("${TEMPLATE_DIR}/${template}.wgsl.in" 0 rest)
set(kernel "")
set(used "")
while(NOT "${rest}" STREQUAL "")
  PopLine(rest line)
  if("${line}" MATCHES "^( *)@([a-z_]+)@$")
    set(indent "${CMAKE_MATCH_1}")
    set(name "${CMAKE_MATCH_2}")
    list(APPEND used ${name})
    if(DEFINED value_${name})
      string(APPEND kernel "${indent}${value_${name}}\n")
    elseif(NOT "${block_${name}}" STREQUAL "")
      # The indent goes before every line that is not empty.
      string(REGEX REPLACE "\n([^\n])" "\n${indent}\\1" block "\n${block_${name}}")
      string(SUBSTRING "${block}" 1 -1 block)
      string(APPEND kernel "${block}")
    endif()
    continue()
  endif()
  string(REGEX MATCHALL "@[a-z_]+@" references "${line}")
  foreach(reference IN LISTS references)
    string(REGEX REPLACE "^@(.*)@$" "\\1" name "${reference}")
    if(NOT DEFINED value_${name})
      KernelError("template ${template} needs the value '//! ${name}: ...'")
    endif()
    list(APPEND used ${name})
    string(REPLACE "${reference}" "${value_${name}}" line "${line}")
  endforeach()
  string(APPEND kernel "${line}\n")
endwhile()
foreach(name IN LISTS names)
  if(NOT name IN_LIST used)
    KernelError("template ${template} has no place for '${name}'")
  endif()
endforeach()

file(WRITE "${OUTPUT}.tmp" "${kernel}")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
