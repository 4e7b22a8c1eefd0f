//! How deep a routed count routes: the `--route-*` settings (or their `PLY_ROUTE_*`
//! variables, checked by the command line).

/// How deep a routed count routes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Routing {
    /// Plies left below the last routed ply, at least: positions closer to the leaves
    /// are counted where they are (`--route-rest`, 1 to 30; default
    /// [`Routing::DEFAULT.rest`](Routing::DEFAULT)).
    pub rest: u32,
    /// The most positions of one ply on one rank for that ply to be routed further
    /// (`--route-nodes`, 1 to 2^30): bounds each rank's memory.
    pub level_nodes: usize,
    /// Items in a batch, per rank (`--route-batch`, 1 to 2^20).
    pub batch: usize,
}

impl Routing {
    /// The settings without the variables.
    pub const DEFAULT: Routing = Routing {
        rest: 4,
        level_nodes: 1 << 20,
        batch: 64,
    };

    /// The settings given (`--route-rest`, `--route-nodes`, `--route-batch`, or their
    /// variables `PLY_ROUTE_REST`, `PLY_ROUTE_NODES`, `PLY_ROUTE_BATCH`, checked by
    /// the command line), the defaults for those not given.
    pub fn new(rest: Option<u64>, level_nodes: Option<u64>, batch: Option<u64>) -> Routing {
        let d = Self::DEFAULT;
        Routing {
            rest: rest.map_or(d.rest, |r| r as u32),
            level_nodes: level_nodes.map_or(d.level_nodes, |n| n as usize),
            batch: batch.map_or(d.batch, |b| b as usize),
        }
    }

    pub(super) fn text(&self) -> String {
        format!(
            "routed: rest {}, {} nodes, batch {}",
            self.rest, self.level_nodes, self.batch
        )
    }
}

#[cfg(test)]
mod tests {
    use super::Routing;

    #[test]
    fn routing_takes_the_settings_given_and_the_defaults_for_the_rest() {
        assert_eq!(Routing::new(None, None, None), Routing::DEFAULT);
        assert_eq!(
            Routing::new(Some(6), None, Some(8)),
            Routing {
                rest: 6,
                batch: 8,
                ..Routing::DEFAULT
            }
        );
        assert_eq!(Routing::new(None, Some(300), None).level_nodes, 300);
    }
}
