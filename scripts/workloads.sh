# Sourced by the measurement scripts (parallel-bench.sh, engine-bench.sh): reads a
# workloads file of '|'-separated fields, one workload a line ('#' starts a comment).
#
#   each_workload FILE CALLBACK [NAME...]
#
# calls CALLBACK with the trimmed fields of every workload (the first field is its
# name), or only of the NAMEs given.
each_workload() {
    local file="$1" callback="$2" line i
    shift 2
    local fields
    while IFS= read -r line; do
        [[ "$line" =~ ^[[:space:]]*(#|$) ]] && continue
        IFS='|' read -r -a fields <<<"$line"
        for i in "${!fields[@]}"; do
            fields[i]="$(sed -e 's/^ *//' -e 's/ *$//' <<<"${fields[i]}")"
        done
        if (($#)) && [[ ! " $* " == *" ${fields[0]} "* ]]; then
            continue
        fi
        "$callback" "${fields[@]}"
    done <"$file"
}
