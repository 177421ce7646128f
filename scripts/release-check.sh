#!/usr/bin/env bash
# Before a release: are the package names ours to publish, and what would `cargo publish`
# upload? Replaces scripts/package-check.sh.
#
#   scripts/release-check.sh                    # the whole check (network: crates.io)
#   scripts/release-check.sh --offline          # CI: no network, a few seconds
#   scripts/release-check.sh --offline --build  # and build the tarballs together (minutes)
#
# 1. Names (skipped with --offline): every publishable package of the workspace (those
#    without `publish = false`) is looked up on crates.io with `cargo info`, run outside
#    the workspace so that it never answers with the local package. A name is "free" (no
#    such crate), "ours" (the published crate's description is this manifest's: a crate
#    this project published) or "TAKEN by someone else". Printed with the date and time.
# 2. Packages: `cargo package --workspace` (publish = false members excluded). Online it
#    verifies each package by building it from its tarball, its workspace dependencies
#    coming from the temporary local registry cargo (>= 1.90) makes of the packages just
#    made, everything else from crates.io: no local substitution. Offline: `--no-verify
#    --offline`, the tarballs and their manifests only. Then the list of what would be
#    published: name, version, files, size.
# 3. With --build (offline or not): one workspace of the unpacked tarballs, each standing
#    in for its crates.io name (`[patch.crates-io]`), built at once with the repository's
#    lock file: the cheap build check scripts/package-check.sh was (one build of the stack
#    instead of one per package).
#
# Exit 0 when no name is taken and every package packaged (and built).
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
offline=0
build=0
for arg in "$@"; do
    case "$arg" in
        --offline) offline=1 ;;
        --build) build=1 ;;
        -h | --help) sed -n '2,25p' "$0"; exit 0 ;;
        *) echo "usage: scripts/release-check.sh [--offline] [--build]" >&2; exit 2 ;;
    esac
done
target="${CARGO_TARGET_DIR:-$ROOT/target}"
scratch=$(mktemp -d "${TMPDIR:-/tmp}/release-check.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# Name, version, description (tab-separated) of every publishable package, and the
# unpublished members to leave out of `cargo package --workspace`.
cargo metadata --no-deps --format-version 1 --offline >"$scratch/metadata.json"
python3 - "$scratch/metadata.json" >"$scratch/packages.tsv" <<'EOF'
import json, sys
meta = json.load(open(sys.argv[1]))
for p in sorted(meta["packages"], key=lambda p: p["name"]):
    publishable = p["publish"] is None or len(p["publish"]) > 0
    desc = " ".join((p.get("description") or "").split())
    print("\t".join([p["name"], p["version"], "publish" if publishable else "exclude", desc]))
EOF
crates=()
excluded=()
while IFS=$'\t' read -r name _ what _; do
    if [ "$what" = publish ]; then crates+=("$name"); else excluded+=("$name"); fi
done <"$scratch/packages.tsv"
echo "release-check: ${#crates[@]} publishable packages: ${crates[*]}"
echo "release-check: not published (publish = false): ${excluded[*]}"

taken=0
if ((offline)); then
    echo "== names: skipped (--offline)"
else
    echo "== names on crates.io ($(date -u '+%Y-%m-%d %H:%M UTC'), cargo info --registry crates-io)"
    mkdir -p "$scratch/outside"
    while IFS=$'\t' read -r name version what desc; do
        [ "$what" = publish ] || continue
        # Outside the workspace: inside it, `cargo info NAME` describes the local member.
        if info=$(cd "$scratch/outside" && cargo info --registry crates-io "$name" 2>&1); then
            published=$(sed -n 's/^version: //p' <<<"$info" | head -n 1)
            # The line after the name and keywords is the description.
            theirs=$(grep -v '^ *\(Updating\|Downloading\|Downloaded\)' <<<"$info" | sed -n '2p' | tr -s ' ')
            if [ "$theirs" = "$desc" ]; then
                status="ours (crates.io has $published; this is $version)"
            else
                status="TAKEN by someone else ($published: \"$theirs\")"
                taken=$((taken + 1))
            fi
        elif grep -q 'could not find' <<<"$info"; then
            status="free"
        else
            echo "$info" >&2
            echo "release-check: could not ask crates.io about $name" >&2
            exit 1
        fi
        printf '  %-24s %s\n' "$name" "$status"
    done <"$scratch/packages.tsv"
    # Why the packages carry the `alembic-rl` prefix (not counted: we do not publish these).
    for name in alembic alembic-engine alembic-core; do
        if info=$(cd "$scratch/outside" && cargo info --registry crates-io "$name" 2>&1); then
            theirs=$(grep -v '^ *\(Updating\|Downloading\|Downloaded\)' <<<"$info" | sed -n '2p' | tr -s ' ')
            printf '  %-24s %s\n' "($name)" "not ours to use: $(sed -n 's/^version: //p' <<<"$info" | head -n 1), \"$theirs\""
        else
            printf '  %-24s %s\n' "($name)" "free"
        fi
    done
fi

echo "== cargo package --workspace$( ((offline)) && echo ' --no-verify --offline')"
args=(--workspace)
for e in "${excluded[@]}"; do args+=(--exclude "$e"); done
if ((offline)); then args+=(--no-verify --offline); fi
rm -f "$target"/package/*.crate
cargo package "${args[@]}"

echo "== what would be published"
total=0
for c in "${crates[@]}"; do
    version=$(awk -F'\t' -v n="$c" '$1 == n { print $2 }' "$scratch/packages.tsv")
    file="$target/package/$c-$version.crate"
    files=$(tar -tzf "$file" | wc -l)
    bytes=$(stat -c %s "$file")
    total=$((total + bytes))
    printf '  %-24s %-7s %4d files %8d bytes  %s\n' "$c" "$version" "$files" "$bytes" "${file#"$ROOT"/}"
done
echo "  ${#crates[@]} packages, $total bytes compressed"

if ((build)); then
    echo "== the tarballs built together ([patch.crates-io] over the unpacked packages)"
    check="$target/package-check"
    rm -rf "$check"
    mkdir -p "$check"
    members=()
    patches=()
    for c in "${crates[@]}"; do
        version=$(awk -F'\t' -v n="$c" '$1 == n { print $2 }' "$scratch/packages.tsv")
        # Touched, so a build never takes them for the last run's.
        tar --touch -xzf "$target/package/$c-$version.crate" -C "$check"
        members+=("\"$c-$version\"")
        patches+=("$c = { path = \"$c-$version\" }")
    done
    {
        echo "# Made by scripts/release-check.sh --build: the packaged crates, built from their tarballs."
        echo "[workspace]"
        echo "members = [$(IFS=,; echo "${members[*]}")]"
        echo 'resolver = "3"'
        echo
        echo "[profile.dev]"
        echo 'debug = "line-tables-only"'
        echo
        echo "[patch.crates-io]"
        printf '%s\n' "${patches[@]}"
    } >"$check/Cargo.toml"
    # The repository's lock file: the same versions of every dependency as the tests use.
    cp Cargo.lock "$check/Cargo.lock"
    offline_flag=()
    if ((offline)); then offline_flag=(--offline); fi
    cargo build "${offline_flag[@]}" --manifest-path "$check/Cargo.toml" --workspace --target-dir "$target"
    echo "release-check: ${#crates[@]} packages built together from their tarballs"
fi

if ((taken)); then
    echo "release-check: $taken name(s) TAKEN by someone else: choose others before publishing"
    exit 1
fi
echo "release-check: ok"
