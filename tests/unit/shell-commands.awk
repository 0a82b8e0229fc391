# SPDX-License-Identifier: GPL-2.0-or-later
# shell-commands.awk - prints "FILE:LINE WORD" for every word a shell script
# runs as a command (first word of a simple command, and the command that
# timeout, nohup, env, xargs, exec, command and time run), and "FILE:LINE
# function NAME" for every function it defines.  tests/unit/deps-list.sh
# checks those words against contrib/deps.list.
#
# Not a shell parser: enough of one for our scripts.  Quoted text is
# blanked (the command substitutions inside double quotes are kept), here
# documents and comments are skipped, and case patterns are dropped, so that
# awk programs, C sources and messages are not taken for commands.  POSIX
# awk: a minimal Debian root has mawk only.

function reset_file() {
	heredoc = ""
	nstack = 0
	state = "code"
	in_pattern = 0
	case_wait_in = 0
	array_level = -1
	continued = 0
}

FNR == 1 { reset_file() }

# words of a cleaned line: command positions follow these separators.
# Case patterns ("case WORD in PAT | PAT) ... ;; PAT) ... esac") are
# skipped up to their ")", across lines.
function scan(text, line,    n, i, w, words, expect, wrapper) {
	# bash's {VAR}>FILE names the descriptor: a plain redirection here
	gsub(/\{[A-Za-z_][A-Za-z0-9_]*\}>/, "9>", text)
	gsub(/\{[A-Za-z_][A-Za-z0-9_]*\}</, "9<", text)
	gsub(/\|\||&&/, " ; ", text)
	gsub(/[|&({}`!]/, " ; ", text)
	n = tokens(text, words)
	expect = !continued
	wrapper = ""
	for (i = 1; i <= n; i++) {
		w = words[i]
		if (in_pattern) {
			if (w == "esac") { in_pattern = 0; expect = 1 }
			else if (w == ")") { in_pattern = 0; expect = 1 }
			continue
		}
		if (case_wait_in) {
			if (w == "in") { case_wait_in = 0; in_pattern = 1 }
			continue
		}
		if (w == ";;") { in_pattern = 1; expect = 1; wrapper = ""; continue }
		if (w == ";" || w == ")") { expect = 1; wrapper = ""; continue }
		if (!expect) continue
		if (wrapper != "") {
			# the options (and timeout's duration) before the command
			if (w ~ /^-[usk]$/) { i++; continue }
			if (w ~ /^-/ || (wrapper == "timeout" && w ~ /^[0-9_]/) ||
			    (wrapper == "env" && w ~ /=/)) continue
		}
		if (w ~ /^[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=/) continue	# VAR=value cmd
		if (w ~ /^[0-9]*[<>]/) { if (w ~ /^[0-9]*[<>]&?$/) i++; continue }	# redirection
		if (w ~ /^(if|then|else|elif|do|while|until|exec|command|time|nohup|timeout|env|xargs)$/) {
			if (w ~ /^(exec|command|time|nohup|timeout|env|xargs)$/) {
				print FILENAME ":" line " " w
				wrapper = w
			}
			continue
		}
		if (w ~ /^(for|select)$/ ) { expect = 0; continue }
		if (w == "case") { case_wait_in = 1; continue }
		if (w ~ /^[A-Za-z_][A-Za-z0-9_.+:-]*$/)
			print FILENAME ":" line " " w
		expect = 0
		wrapper = ""
	}
}

# tokens(TEXT, ARR): the words of TEXT, with ";", ";;" and ")" as words
function tokens(text, arr,    n, t) {
	n = 0
	while (text != "") {
		if (match(text, /^[ \t]+/)) { text = substr(text, RLENGTH + 1); continue }
		if (substr(text, 1, 2) == ";;") { arr[++n] = ";;"; text = substr(text, 3); continue }
		t = substr(text, 1, 1)
		if (t == ";" || t == ")") { arr[++n] = t; text = substr(text, 2); continue }
		match(text, /^[^ \t;)]+/)
		arr[++n] = substr(text, 1, RLENGTH)
		text = substr(text, RLENGTH + 1)
	}
	return n
}

{
	line = $0
	if (heredoc != "") {
		t = line
		if (heredoc_tabs) sub(/^\t+/, "", t)
		if (t == heredoc) heredoc = ""
		next
	}
	if (state == "code" && nstack == 0 && line ~ /^[ \t]*#/) next
	if (state == "code" && nstack == 0 &&
	    match(line, /^[ \t]*(function[ \t]+)?[A-Za-z_][A-Za-z0-9_-]*[ \t]*\(\)/)) {
		name = substr(line, RSTART, RLENGTH)
		sub(/^[ \t]*(function[ \t]+)?/, "", name)
		sub(/[ \t]*\(\)$/, "", name)
		print FILENAME ":" FNR " function " name
	}
	out = ""
	continued_next = 0
	len = length(line)
	for (i = 1; i <= len; i++) {
		c = substr(line, i, 1)
		if (state == "single") {
			if (c == "'") { state = "code"; out = out "@" }
			continue
		}
		if (state == "double") {
			if (c == "\\") { i++; continue }
			if (c == "\"") { state = "code"; out = out "@"; continue }
			if (c == "$" && substr(line, i + 1, 1) == "(" &&
			    substr(line, i + 2, 1) != "(") {
				stack[++nstack] = "double"
				depth[nstack] = 0
				state = "code"
				out = out " ; "
				i++
			}
			continue
		}
		# code
		if (c == "\\") {
			if (i == len) continued_next = 1
			out = out " "; i++; continue
		}
		if (c == "'") { state = "single"; continue }
		if (c == "\"") { state = "double"; continue }
		if (c == "#" && (i == 1 || substr(line, i - 1, 1) ~ /[ \t;]/)) break
		if (c == "(" && substr(line, i - 1, 1) == "=" && array_level < 0) {
			# VAR=(words): an array, no command but in $(...)
			array_level = nstack
			out = out "@"
			continue
		}
		if (array_level == nstack) {
			if (c == ")") { array_level = -1; out = out "@" }
			else if (c == "$" && substr(line, i + 1, 2) == "((") {
				j = index(substr(line, i), "))")
				if (j) i += j
			} else if (c == "$" && substr(line, i + 1, 1) == "(") {
				stack[++nstack] = "code"
				depth[nstack] = 0
				out = out " ; "
				i++
			}
			continue
		}
		if (c == "(" && substr(line, i + 1, 1) == "(") {
			# (( arithmetic )) and for ((...)): no command inside
			j = index(substr(line, i), "))")
			if (j) { i += j; out = out " ; "; continue }
		}
		if (c == "$" && substr(line, i + 1, 2) == "((") {
			# arithmetic: no command inside
			j = index(substr(line, i), "))")
			if (j) { i += j; out = out "@"; continue }
		}
		if (c == "$" && substr(line, i + 1, 1) == "{") {
			j = index(substr(line, i), "}")
			if (j) { i += j - 1; out = out "@"; continue }
		}
		if (c == "$" && substr(line, i + 1, 1) == "(") {
			stack[++nstack] = "code"
			depth[nstack] = 0
			out = out " ; "
			i++
			continue
		}
		if (nstack > 0 && c == "(") depth[nstack]++
		if (nstack > 0 && c == ")") {
			if (depth[nstack] > 0) depth[nstack]--
			else { state = stack[nstack--]; out = out " ; "; continue }
		}
		if (c == "<" && substr(line, i + 1, 1) == "<" && substr(line, i + 2, 1) != "<") {
			rest = substr(line, i + 2)
			heredoc_tabs = (substr(rest, 1, 1) == "-")
			if (heredoc_tabs) rest = substr(rest, 2)
			if (match(rest, /^[ \t]*['"]?[A-Za-z_][A-Za-z0-9_]*['"]?/)) {
				word = substr(rest, RSTART, RLENGTH)
				gsub(/[ \t'"]/, "", word)
				pending_heredoc = word
				pending_tabs = heredoc_tabs
				i += 1 + heredoc_tabs + RLENGTH
				out = out " @"
				continue
			}
		}
		out = out c
	}
	if (state == "double" || state == "single") out = out " "
	scan(out, FNR)
	continued = continued_next
	if (pending_heredoc != "") {
		heredoc = pending_heredoc
		heredoc_tabs = pending_tabs
		pending_heredoc = ""
	}
}
