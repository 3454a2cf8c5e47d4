#!/usr/bin/env bash
# Docs, README and the shipped examples cite public sources, never files outside the repository
# (the team's own notes outside the clone): no parent-folder notes, FACTS.md, DESIGN.md or STYLE.md.
root=$1
hits=$(grep -rnE '\.\./shared|/work/shared|FACTS\.md|DESIGN\.md|STYLE\.md' "$root/docs" "$root/README.md" \
       "$root/scenarios" "$root/profiles" 2>/dev/null)
if [ -n "$hits" ]; then echo "FAIL references outside the repository:"; echo "$hits"; exit 1; fi
echo "ok   no references outside the repository"
