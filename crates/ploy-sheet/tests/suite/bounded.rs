//! Bounded reading: error messages quote bounded excerpts, and reading a file or a reader
//! stops at a documented size.

use ploy_sheet::{read_record, read_sheet};

/// A token far longer than any message should be.
fn huge() -> String {
    "x".repeat(5 << 20)
}

/// Messages stay short: a few hundred bytes at most.
const MESSAGE_MAX: usize = 400;

#[test]
fn errors_quote_a_bounded_excerpt() {
    let h = huge();
    let records = [
        format!("ploy-record: {h}\nmoves:\n"),
        format!("ploy-record: 1\n{h}: 1\nmoves:\n"),
        format!("ploy-record: 1\nvariant: {h}\nmoves:\n"),
        format!("ploy-record: 1\nresult: {h}\nmoves:\n"),
        format!("ploy-record: 1\nmoves:\n{h}\n"),
        format!("ploy-record: 1\nmoves:\ne3-e4-0 {h}\n"),
    ];
    for text in &records {
        let err = read_record(text).unwrap_err().to_string();
        assert!(
            err.len() <= MESSAGE_MAX,
            "{} bytes: {}",
            err.len(),
            &err[..100]
        );
    }
    let sheets = [
        format!("Ploy score sheet\n{h}\tx\n"),
        format!("Ploy score sheet\nVariant\t{h}\n"),
        format!("Ploy score sheet\nRound\tGreen\tRed\n{h}\te3-e4\n"),
        format!("Ploy score sheet\nRound\tGreen\tRed\n1\t{h}\n"),
        format!("Ploy score sheet\nRound\tGreen\tRed\n1\te3-e4\te7-e6\t{h}\n"),
        format!("Ploy score sheet\nRound\tGreen\tRed\n1\te3-e4\nResult\t{h}\n"),
        format!("Ploy score sheet\nEvent\tx\t{h}\n"),
    ];
    for text in &sheets {
        let err = read_sheet(text).unwrap_err().to_string();
        assert!(
            err.len() <= MESSAGE_MAX,
            "{} bytes: {}",
            err.len(),
            &err[..100]
        );
    }
}

#[test]
fn an_endless_reader_is_refused_at_the_bound() {
    // `/dev/zero` as a reader: zero bytes for ever.
    let err = ploy_sheet::load_from(std::io::repeat(0)).unwrap_err();
    assert!(
        matches!(err, ploy_sheet::LoadError::TooLarge { limit } if limit == ploy_sheet::MAX_BYTES),
        "{err}"
    );
    assert!(err.to_string().contains("bytes"), "{err}");
    let err = ploy_sheet::read_text(std::io::repeat(b'a'), 10).unwrap_err();
    assert!(matches!(err, ploy_sheet::LoadError::TooLarge { limit: 10 }));
    // Exactly the bound is fine.
    assert_eq!(
        ploy_sheet::read_text(std::io::Read::take(std::io::repeat(b'a'), 10), 10).unwrap(),
        "a".repeat(10)
    );
}

#[cfg(unix)]
#[test]
fn dev_zero_is_refused_at_the_bound() {
    let err = ploy_sheet::load("/dev/zero").unwrap_err();
    assert!(
        matches!(err, ploy_sheet::LoadError::TooLarge { .. }),
        "{err}"
    );
}

#[test]
fn files_load_and_errors_say_why() {
    let dir = std::env::temp_dir().join(format!("ploy-sheet-bounded-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let record = dir.join("game.txt");
    std::fs::write(&record, "ploy-record: 1\nmoves:\ne3-e4-0\n").unwrap();
    let (format, saved) = ploy_sheet::load(&record).unwrap();
    assert_eq!(format, ploy_sheet::Format::Record);
    assert_eq!(saved.game.moves().len(), 1);
    assert_eq!(
        ploy_sheet::load_text(&record).unwrap(),
        "ploy-record: 1\nmoves:\ne3-e4-0\n"
    );

    let binary = dir.join("binary.txt");
    std::fs::write(&binary, b"Ploy score sheet\n\xff\xfe\n").unwrap();
    let err = ploy_sheet::load(&binary).unwrap_err();
    assert!(
        matches!(err, ploy_sheet::LoadError::NotText { line: 2 }),
        "{err}"
    );

    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "ploy-record: 1\nmoves:\ne3-e5-0\n").unwrap();
    let err = ploy_sheet::load(&bad).unwrap_err();
    assert!(matches!(err, ploy_sheet::LoadError::Read(_)), "{err}");
    assert!(err.to_string().starts_with("line 3, column 1:"), "{err}");

    let missing = dir.join("missing.txt");
    assert!(matches!(
        ploy_sheet::load(&missing),
        Err(ploy_sheet::LoadError::Io(_))
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}
