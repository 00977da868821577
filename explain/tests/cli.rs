//! `mpi-dtype-explain` used as a person would: each format printed for an expression, and a
//! syntax error and a failed constructor reported with the expression and a caret.

fn cli(args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_mpi-dtype-explain"))
        .args(args)
        .output()
        .expect("the tool runs")
}

#[test]
fn the_tool_prints_each_format_and_reports_errors() {
    let particle = "struct([1,1,3], [0,8,16], [MPI_INT, MPI_DOUBLE, MPI_CHAR])";
    let text = cli(&[particle]);
    assert!(text.status.success());
    assert!(
        String::from_utf8_lossy(&text.stdout).contains("1 x MPI_INT, 1 x MPI_DOUBLE, 3 x MPI_CHAR")
    );
    for (format, start) in [("json", "{"), ("svg", "<svg "), ("html", "<!DOCTYPE html>")] {
        let out = cli(&[particle, "--format", format]);
        assert!(out.status.success(), "{format}");
        assert!(
            String::from_utf8_lossy(&out.stdout).starts_with(start),
            "{format}"
        );
    }
    let json = cli(&["--format=json", particle]);
    let json = String::from_utf8_lossy(&json.stdout);
    assert!(
        json.starts_with('{') && json.contains("\"extent\": 24,"),
        "{json}"
    );

    let bad = cli(&["struct([1,1,3], [0,8,16], [MPI_INT MPI_DOUBLE, MPI_CHAR])"]);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8_lossy(&bad.stderr);
    assert!(err.contains("syntax error at character 36"), "{err}");
    assert!(err.contains(&format!("\n  {}^\n", " ".repeat(35))), "{err}");

    let semantic = cli(&["vector(-1, 1, 2, MPI_INT)"]);
    assert_eq!(semantic.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&semantic.stderr)
        .contains("MPI_ERR_COUNT: count must be non-negative"));

    assert_eq!(cli(&[particle, "--format", "pdf"]).status.code(), Some(2));
    assert_eq!(cli(&[]).status.code(), Some(2));
    assert!(cli(&["--help"]).status.success());
}
