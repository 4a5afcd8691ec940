# The layer check (cmake/CheckLayers.cmake) on a small fixture tree, then on
# Carom's own tree:
#   cmake -DSOURCE=<repository root> -P tests/foundation/layers_test.cmake
set(check ${SOURCE}/cmake/CheckLayers.cmake)
set(fixture ${SOURCE}/tests/foundation/layers_fixture)

# run(table result_var output_var): the check on the fixture with that table.
function(run root table out_rc out_text)
  execute_process(COMMAND ${CMAKE_COMMAND} -DROOT=${root} -DTABLE=${table} -P ${check}
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_rc} ${rc} PARENT_SCOPE)
  set(${out_text} "${out}${err}" PARENT_SCOPE)
endfunction()

# expect("condition" what text): condition is an if() expression, as text.
function(expect condition what text)
  cmake_language(EVAL CODE "
    if(NOT (${condition}))
      message(FATAL_ERROR \"FAILED: ${what}\\n--- the check printed:\\n\${text}\")
    endif()")
  message(STATUS "ok: ${what}")
endfunction()

# 1. An upward include fails, named by file, line and rule; nothing else is reported.
run(${fixture} ${fixture}/layers.txt rc text)
expect("NOT rc EQUAL 0" "an upward include fails the check" "${text}")
string(FIND "${text}" "low/uses_high.cpp:3: error: layer 'low' includes 'high/top.hpp' of the higher layer 'high' (a file may include only its own and lower layers: low < high" at)
expect("at GREATER -1" "the failure names the file, the line and the rule" "${text}")
expect("text MATCHES \"1 include\\\\(s\\\\) break\"" "only the one violation is reported" "${text}")

# 2. The same include listed as a known exception passes; an exception that
#    matches no include is reported so that its line gets deleted.
run(${fixture} ${fixture}/layers_with_exception.txt rc text)
expect("rc EQUAL 0" "a listed exception passes" "${text}")
expect("text MATCHES \"low/base.hpp high/top.hpp merged-branch' matches no include\"" "an unused exception is reported" "${text}")
expect("NOT text MATCHES \"some-branch' matches no include\"" "a used exception is not reported" "${text}")

# 3. A public header that no layer names is refused, and so is an include of it.
run(${fixture} ${fixture}/layers_unlisted_header.txt rc text)
expect("NOT rc EQUAL 0" "a public header in no layer fails the check" "${text}")
expect("text MATCHES \"include/fx/api.hpp:1: error: public header in no layer\"" "the unlisted header is named" "${text}")
expect("text MATCHES \"high/top.hpp:6: error: layer 'high' includes 'include/fx/api.hpp', which is in no layer\"" "the include of it is named" "${text}")

# 4. Carom itself follows its table.
run(${SOURCE} ${SOURCE}/cmake/layers.txt rc text)
expect("rc EQUAL 0" "Carom's tree follows cmake/layers.txt" "${text}")
expect("NOT text MATCHES \"matches no include\"" "every exception of cmake/layers.txt is still needed" "${text}")
