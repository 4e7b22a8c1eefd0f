//! A small JSON writer for what the page reads (boards, moves, engine reports): the
//! crate stays free of a serialisation dependency.

/// JSON text under construction. Commas are placed automatically.
#[derive(Default)]
pub struct Json {
    out: String,
    /// True when the next value or key needs a comma before it.
    comma: bool,
}

impl Json {
    /// An empty writer.
    pub fn new() -> Self {
        Json::default()
    }

    fn sep(&mut self) {
        if self.comma {
            self.out.push(',');
        }
        self.comma = true;
    }

    /// Opens an object (`{`) or an array (`[`).
    pub fn open(&mut self, bracket: char) -> &mut Self {
        self.sep();
        self.out.push(bracket);
        self.comma = false;
        self
    }

    /// Closes the innermost object (`}`) or array (`]`).
    pub fn close(&mut self, bracket: char) -> &mut Self {
        self.out.push(bracket);
        self.comma = true;
        self
    }

    /// An object key; the value follows.
    pub fn key(&mut self, key: &str) -> &mut Self {
        self.str(key);
        self.out.push(':');
        self.comma = false;
        self
    }

    /// A string value.
    pub fn str(&mut self, s: &str) -> &mut Self {
        self.sep();
        self.out.push('"');
        for c in s.chars() {
            match c {
                '"' => self.out.push_str("\\\""),
                '\\' => self.out.push_str("\\\\"),
                '\n' => self.out.push_str("\\n"),
                c if (c as u32) < 0x20 => self.out.push_str(&format!("\\u{:04x}", c as u32)),
                c => self.out.push(c),
            }
        }
        self.out.push('"');
        self
    }

    /// An integer value.
    pub fn num(&mut self, n: i64) -> &mut Self {
        self.sep();
        self.out.push_str(&n.to_string());
        self
    }

    /// An integer or `null`.
    pub fn opt(&mut self, n: Option<usize>) -> &mut Self {
        match n {
            Some(n) => self.num(n as i64),
            None => {
                self.sep();
                self.out.push_str("null");
                self
            }
        }
    }

    /// The text written.
    pub fn finish(self) -> String {
        self.out
    }
}

#[cfg(test)]
mod tests {
    use super::Json;

    #[test]
    fn writes_nested_values_with_commas_and_escapes() {
        let mut j = Json::new();
        j.open('{');
        j.key("a").num(1);
        j.key("b").open('[');
        j.str("x\"y\\z\n").opt(None).opt(Some(3));
        j.close(']');
        j.key("c").open('{').close('}');
        j.close('}');
        assert_eq!(j.finish(), r#"{"a":1,"b":["x\"y\\z\n",null,3],"c":{}}"#);
    }
}
