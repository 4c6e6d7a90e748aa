// The user documentation of the repository's `docs/` directory, as modules, so that it can
// be read in rustdoc too. The Markdown files link to each other with reference-style links
// (`[rules]: rules.md` at the end of a file), which work on a repository page; the
// definitions in front of each `include_str!` below come first, and in Markdown the first
// definition of a label wins, so in rustdoc the same links lead to these modules instead.
// `tests/suite/docs_rules.rs` checks that every relative link of the documents has such a
// definition here.
#![doc = "[rules]: crate::docs::rules\n[notation]: crate::docs::notation\n\
          [protocol]: crate::docs::protocol\n[speed]: crate::docs::speed\n\
          [server]: crate::docs::server\n[pyloff]: crate::docs::pyloff\n\
          [pente]: crate::docs::pente\n[search-tuning]: crate::docs::search_tuning\n\
          [matches]: crate::docs::matches\n[readme]: crate"]
#![doc = include_str!("../docs/README.md")]

pub mod rules {
    #![doc = "[notation]: crate::docs::notation\n[index]: crate::docs\n\
              [protocol]: crate::docs::protocol"]
    #![doc = include_str!("../docs/rules.md")]
}

pub mod notation {
    #![doc = "[rules]: crate::docs::rules\n[index]: crate::docs"]
    #![doc = include_str!("../docs/notation.md")]
}

pub mod protocol {
    #![doc = "[rules]: crate::docs::rules\n[notation]: crate::docs::notation\n\
              [index]: crate::docs\n[pente]: crate::docs::pente\n[pyloff]: crate::docs::pyloff\n\
              [tuning]: crate::docs::search_tuning"]
    #![doc = include_str!("../docs/PROTOCOL.md")]
}

pub mod speed {
    #![doc = "[index]: crate::docs\n[readme]: crate"]
    #![doc = include_str!("../docs/speed.md")]
}

pub mod server {
    #![doc = "[rules]: crate::docs::rules\n[index]: crate::docs\n\
              [pente]: crate::docs::pente\n[pyloff]: crate::docs::pyloff"]
    #![doc = include_str!("../docs/server.md")]
}

pub mod pyloff {
    #![doc = include_str!("../docs/pyloff.md")]
}

pub mod pente {
    #![doc = "[index]: crate::docs\n[readme]: crate"]
    #![doc = include_str!("../docs/pente.md")]
}

pub mod search_tuning {
    #![doc = "[index]: crate::docs\n[speed]: crate::docs::speed\n[readme]: crate"]
    #![doc = include_str!("../docs/search-tuning.md")]
}

pub mod matches {
    #![doc = "[protocol]: crate::docs::protocol"]
    #![doc = include_str!("../docs/matches.md")]
}
