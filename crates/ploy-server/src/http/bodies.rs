//! The JSON bodies of the HTTP API as typed structs, and [`read`], the one reader of them.
//!
//! A non-empty body has been checked to say `Content-Type: application/json` before it gets
//! here ([`super::guard::RequestBody::read`]). It must be one JSON object; of duplicate keys
//! the last one counts (the object is read into a map first). Its fields are then checked
//! in the order each body lists them, so that the first refusal answers with the same
//! words whatever the order of the keys: `missing field `name``, `` `name` must be a
//! string``, and so on. Unknown keys are ignored.

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::service::ApiError;

/// What a field must hold.
#[derive(Clone, Copy, Debug)]
pub(super) enum Kind {
    /// A string.
    Text,
    /// A list of strings.
    Texts,
    /// A whole number, 0 or more, that fits a `usize`.
    WholeNumber,
}

/// One field of a body: its JSON name, what it holds, and whether it must be there.
#[derive(Clone, Copy, Debug)]
pub(super) struct Field {
    name: &'static str,
    kind: Kind,
    required: bool,
}

impl Field {
    /// A field that must be there.
    const fn required(name: &'static str, kind: Kind) -> Field {
        Field {
            name,
            kind,
            required: true,
        }
    }

    /// A field that may be left out.
    const fn optional(name: &'static str, kind: Kind) -> Field {
        Field {
            name,
            kind,
            required: false,
        }
    }

    /// Checks this field of `body`; the refusal says which field and why.
    fn check(&self, body: &Map<String, Value>) -> Result<(), ApiError> {
        let name = self.name;
        let Some(value) = body.get(name) else {
            return if self.required {
                Err(ApiError::bad_request(format!("missing field `{name}`")))
            } else {
                Ok(())
            };
        };
        let (fits, needed) = match self.kind {
            Kind::Text => (value.is_string(), "a string"),
            Kind::Texts => (
                value
                    .as_array()
                    .is_some_and(|items| items.iter().all(Value::is_string)),
                "a list of strings",
            ),
            Kind::WholeNumber => (
                value.as_u64().is_some_and(|n| usize::try_from(n).is_ok()),
                "a whole number, 0 or more",
            ),
        };
        if fits {
            Ok(())
        } else {
            Err(ApiError::bad_request(format!("`{name}` must be {needed}")))
        }
    }
}

/// A request body: a struct serde reads, with the fields checked before, in order.
pub(super) trait Body: DeserializeOwned {
    /// The fields in the order they are checked (the first refusal answers).
    const FIELDS: &'static [Field];
}

/// What an empty body means.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Empty {
    /// A refusal: the route needs a JSON object.
    Refused,
    /// The empty object `{}`: every field of the route may be left out.
    NoFields,
}

/// Reads `bytes` as the body `T`.
///
/// # Errors
/// 400: an empty body where the route needs one, malformed JSON, JSON other than an
/// object, a missing field or a field of the wrong type.
pub(super) fn read<T: Body>(bytes: &[u8], empty: Empty) -> Result<T, ApiError> {
    let map = if bytes.is_empty() {
        if empty == Empty::Refused {
            return Err(ApiError::bad_request(
                "the request has no body; expected a JSON object",
            ));
        }
        Map::new()
    } else {
        match serde_json::from_slice::<Value>(bytes) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err(ApiError::bad_request("expected a JSON object")),
            Err(e) => return Err(ApiError::bad_request(format!("malformed JSON: {e}"))),
        }
    };
    for field in T::FIELDS {
        field.check(&map)?;
    }
    serde_json::from_value(Value::Object(map))
        .map_err(|e| ApiError::bad_request(format!("the body does not fit: {e}")))
}

/// The credentials a body may carry: a userid and a password, or neither when a session
/// cookie stands in for them.
#[derive(Clone, Debug, Default, Deserialize)]
pub(super) struct Who {
    /// The userid.
    pub userid: Option<String>,
    /// The password.
    pub password: Option<String>,
}

/// The credential fields, checked after a body's own.
const USERID: Field = Field::optional("userid", Kind::Text);
/// See [`USERID`].
const PASSWORD: Field = Field::optional("password", Kind::Text);

impl Body for Who {
    const FIELDS: &'static [Field] = &[USERID, PASSWORD];
}

/// `POST /api/users` and `POST /api/sessions`: an account's userid and password.
#[derive(Clone, Debug, Deserialize)]
pub(super) struct Account {
    /// The userid.
    pub userid: String,
    /// The password.
    pub password: String,
    /// `POST /api/users`: an e-mail address to register (a code is mailed to it).
    #[serde(default)]
    pub email: Option<String>,
}

impl Body for Account {
    const FIELDS: &'static [Field] = &[
        Field::required("userid", Kind::Text),
        Field::required("password", Kind::Text),
        Field::optional("email", Kind::Text),
    ];
}

/// `POST /api/password`: the new password, with the current one (and the userid, unless a
/// session cookie names the user).
#[derive(Clone, Debug, Deserialize)]
pub(super) struct NewPassword {
    /// The new password.
    pub new_password: String,
    /// Whose password, and the current one.
    #[serde(flatten)]
    pub who: Who,
}

impl Body for NewPassword {
    const FIELDS: &'static [Field] = &[
        Field::required("new_password", Kind::Text),
        USERID,
        PASSWORD,
    ];
}

/// `POST /api/types/{name}/seats`: the options of a challenge not yet made.
#[derive(Clone, Debug, Deserialize)]
pub(super) struct SeatsOf {
    /// The options (none by default).
    #[serde(default)]
    pub options: Vec<String>,
}

impl Body for SeatsOf {
    const FIELDS: &'static [Field] = &[Field::optional("options", Kind::Texts)];
}

/// `POST /api/games`: a challenge.
#[derive(Clone, Debug, Deserialize)]
pub(super) struct Challenge {
    /// The game type.
    pub game: String,
    /// The options (none by default).
    #[serde(default)]
    pub options: Vec<String>,
    /// The players in seat order.
    pub players: Vec<String>,
    /// Who challenges.
    #[serde(flatten)]
    pub who: Who,
}

impl Body for Challenge {
    const FIELDS: &'static [Field] = &[
        Field::required("game", Kind::Text),
        Field::optional("options", Kind::Texts),
        Field::required("players", Kind::Texts),
        USERID,
        PASSWORD,
    ];
}

/// `POST /api/games/{id}/moves`: a move and the number of moves it follows.
#[derive(Clone, Debug, Deserialize)]
pub(super) struct PlayMove {
    /// The move's text.
    #[serde(rename = "move")]
    pub text: String,
    /// The number of moves played before it.
    pub ply: usize,
    /// Who plays.
    #[serde(flatten)]
    pub who: Who,
}

impl Body for PlayMove {
    const FIELDS: &'static [Field] = &[
        Field::required("move", Kind::Text),
        Field::required("ply", Kind::WholeNumber),
        USERID,
        PASSWORD,
    ];
}
