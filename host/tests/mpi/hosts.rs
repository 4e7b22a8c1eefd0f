//! Ranks on several hosts: two on one machine, four as network namespaces.

use super::*;

#[test]
fn two_hosts_on_one_machine_count_the_same() {
    // Each "host" gets a host name of its own (a UTS namespace): where that is not
    // allowed, there is nothing to test.
    if !Command::new("unshare")
        .args(["--uts", "true"])
        .status()
        .is_ok_and(|s| s.success())
    {
        eprintln!("skipped: unshare --uts is not allowed here");
        return;
    }
    let agent = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/common/fake-ssh.sh");
    let mut c = mpirun_command();
    c.args(["--host", "127.0.0.1:2,127.0.0.2:2", "-np", "4"])
        .arg("--mca")
        .arg("plm_rsh_agent")
        .arg(&agent)
        .arg(env!("CARGO_BIN_EXE_ply"))
        .args(["perft", "checkers", "9"]);
    let o = run(c);
    let err = stderr(&o);
    assert!(o.status.success(), "{}", err);
    assert_eq!(stdout(&o).lines().next(), Some("3963680"));
    let s = summary(&err);
    assert_eq!(s.len(), 4, "{}", err);
    assert_eq!(
        s.iter().filter(|r| r.1 == "fake-127.0.0.2").count(),
        2,
        "{}",
        err
    );
    assert_eq!(s.iter().map(|r| r.2).sum::<u64>(), 9105);
}

/// The positions routed, summed over the per-rank lines (`... routed N positions ...`).
fn routed_positions(err: &str) -> u64 {
    err.lines()
        .filter_map(|l| {
            l.split_once("; routed ")?
                .1
                .split(' ')
                .next()?
                .parse::<u64>()
                .ok()
        })
        .sum()
}

#[test]
fn four_hosts_in_network_namespaces_count_the_same() {
    // Four "hosts", each a network namespace with a network stack and an address of
    // its own, joined by links that hold every packet 1 ms (scripts/netns-mpi.sh
    // makes them and removes them): one rank in each, talking TCP across the links,
    // counts through one table what one process counts. Where namespaces are not
    // permitted, the script says so in one line and exits 77.
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/netns-mpi.sh");
    let tag = format!("plyt{}", std::process::id());
    let args = ["perft", "checkers", "9", "--divide", "--hash-mb", "16"];
    let one = ply(&args);
    assert!(one.status.success(), "{}", stderr(&one));
    let o = run({
        let mut c = Command::new("bash");
        c.arg(&script)
            .env("DELAY_MS", "1")
            .env("NETNS_MPI_TAG", &tag)
            // Routed two plies below the items, in small batches: many rounds of
            // messages between the hosts.
            .env("PLY_ROUTE_REST", "2")
            .env("PLY_ROUTE_BATCH", "16")
            .args(["-x", "PLY_ROUTE_REST", "-x", "PLY_ROUTE_BATCH"])
            .arg(env!("CARGO_BIN_EXE_ply"))
            .args(args)
            .stdin(Stdio::null());
        c
    });
    let err = stderr(&o);
    let netns = Command::new("ip").args(["netns", "list"]).output();
    let left: Vec<String> = netns
        .map(|n| stdout(&n))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with(&format!("{}-", tag)))
        .map(String::from)
        .collect();
    assert!(left.is_empty(), "namespaces left behind: {:?}", left);
    if o.status.code() == Some(77) {
        eprintln!("{}", err.lines().last().unwrap_or("netns-mpi: skipped"));
        return;
    }
    assert!(o.status.success(), "{}", err);
    assert_eq!(results(&stdout(&o)), results(&stdout(&one)), "{}", err);
    assert!(stdout(&o).lines().any(|l| l == "3963680"), "{}", stdout(&o));
    let s = summary(&err);
    let mut hosts: Vec<&str> = s.iter().map(|r| r.1.as_str()).collect();
    hosts.sort_unstable();
    assert_eq!(
        hosts,
        ["netns-h0", "netns-h1", "netns-h2", "netns-h3"],
        "{}",
        err
    );
    assert_eq!(s.iter().map(|r| r.2).sum::<u64>(), 9105, "{}", err);
    assert!(routed_positions(&err) > 0, "{}", err);
    let last = err.lines().last().unwrap_or("");
    assert!(last.starts_with("netns-mpi: 4 hosts, 1 ms ("), "{}", err);
}
