#!/usr/bin/env bash
# Prints the home of a JDK >= 21: JAVA_HOME when it is one, else the newest under /usr/lib/jvm.
# Sourced by ./sluice and .ci/run so that nobody has to pick a JDK by hand.
set -u

jdk_major() {
  # $1: a JDK home. Prints its feature version (17, 21, 25...) or nothing.
  local release="$1/release" v
  if [ -r "$release" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release")
  fi
  if [ -z "${v:-}" ] && [ -x "$1/bin/java" ]; then
    v=$("$1/bin/java" -version 2>&1 | sed -n '1s/.*version "\([0-9]*\).*/\1/p')
  fi
  printf '%s' "${v:-}"
}

find_jdk() {
  local min=21 best="" best_v=0 home v
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ]; then
    v=$(jdk_major "$JAVA_HOME")
    if [ -n "$v" ] && [ "$v" -ge "$min" ]; then printf '%s\n' "$JAVA_HOME"; return 0; fi
  fi
  for home in /usr/lib/jvm/*; do
    [ -x "$home/bin/javac" ] || continue
    [ -L "$home" ] && continue
    v=$(jdk_major "$home")
    [ -n "$v" ] || continue
    if [ "$v" -ge "$min" ] && [ "$v" -gt "$best_v" ]; then best="$home"; best_v="$v"; fi
  done
  if [ -z "$best" ]; then
    echo "sluice: no JDK 21 or newer found (JAVA_HOME=${JAVA_HOME:-unset}, nothing suitable under /usr/lib/jvm). Install one, e.g. 'apt-get install openjdk-21-jdk-headless'." >&2
    return 1
  fi
  printf '%s\n' "$best"
}

# Maven 3.9 on JDK 24+ warns about sun.misc.Unsafe on every run; that noise hides real output.
quiet_maven_on() {
  local v
  v=$(jdk_major "$1")
  if [ -n "$v" ] && [ "$v" -ge 24 ]; then
    case " ${MAVEN_OPTS:-} " in
      *sun-misc-unsafe-memory-access*) ;;
      *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;;
    esac
  fi
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then find_jdk; fi
